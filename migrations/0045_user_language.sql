-- Issue 34: each person picks the language the web app speaks to them; null follows their browser.
-- The codes are the app's catalogs (src/modules/accounts/languages.ts), checked by the route's schema.
ALTER TABLE users ADD COLUMN language text;
