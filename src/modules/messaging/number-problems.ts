/**
 * Meta's error codes that concern the number, not the message: every send from the number meets the
 * same refusal until its owner acts, so the number is paused after the first (pause-number.ts)
 * instead of failing each message in turn. From Meta's error codes page (Cloud API and Graph API):
 * what the owner is told to do, shown in Settings › Connected number. Meta's 0 (AuthException) is left
 * out: Parley gives code 0 to an answer that carries no readable code (error-code.ts).
 */
const NUMBER_PROBLEMS: Record<number, string> = {
  3: "The app lacks the capability to send: check the app's permissions in Meta's App Dashboard, then check again.",
  10: 'The access token lacks permission to send: grant whatsapp_business_messaging, then save the token again.',
  190: 'The access token has expired or was revoked: save a new access token (a System User token does not expire).',
  368: "Meta has blocked the number for a while for policy violations: see the account's quality in WhatsApp Manager, then check again once the block ends.",
  131005: 'Meta denied access to the number: check the access token permissions, then save it again.',
  131031:
    'Meta has locked the business account (a policy violation, or the number failed verification): see WhatsApp Manager, then check again.',
  131037:
    'The number needs its display name approved before it can send: see WhatsApp Manager, then check again.',
  131042:
    "There is a problem with the business account's payment method: fix it in Meta Business Suite, then check again.",
  131045:
    'The number is not registered correctly (certificate): register it again in WhatsApp Manager, then check again.',
  133010: 'The number is not registered with the Cloud API: register it, then check again.',
};

/** What the owner must do about a refusal that concerns the number; null when it concerns the message. */
export function numberProblem(code: number): string | null {
  if (NUMBER_PROBLEMS[code]) return NUMBER_PROBLEMS[code];
  // 200 to 299: Graph API permission errors, as 10.
  if (code >= 200 && code <= 299) return NUMBER_PROBLEMS[10]!;
  return null;
}
