/**
 * The longest text each field people type takes: the server's schemas and the web app's inputs
 * (their `maxLength`) both read it here, so an input never lets through what the server refuses.
 */
export const FIELD_LIMITS = {
  email: 254,
  password: 200,
  personName: 200,
  workspaceName: 200,
  webhookUrl: 2000,
  formName: 200,
  formFieldName: 64,
  formFieldLabel: 200,
  formOption: 200,
  thankYouMessage: 1000,
  redirectUrl: 2000,
  contactName: 200,
  tag: 64,
  apiKeyName: 100,
} as const;
