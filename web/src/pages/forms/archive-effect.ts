export const FORM_ARCHIVE_EFFECT = 'Its page and embeds say the form is closed, and submissions are refused.';
