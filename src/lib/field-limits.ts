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
  leadNote: 5000,
  leadSearch: 200,
  conversationNote: 4096,
  quickReplyTitle: 60,
  quickReplyText: 4096,
  broadcastName: 200,
  /** A broadcast's typed value, a fallback or a trait value an audience matches. */
  broadcastValue: 1024,
  traitKey: 64,
  traitValue: 1024,
  /** The text sent back when someone opts out or in (Settings › General). */
  consentReply: 1024,
  mediaLink: 2048,
} as const;

/** A broadcast's bounds that are not lengths: trait rules in an audience, the reply window's hours. */
export const BROADCAST_LIMITS = { traitRules: 20, replyHours: 168 } as const;
