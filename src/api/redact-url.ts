// URLs that carry a secret, never written to a log: the workflow webhook's secret (its last path
// segment), an invitation's token in the web app's page and in its preview under /api/app (but
// not `accept`, nor an invitation's id, `inv_...`, which a token never looks like), and a password
// reset link's token in the web app's page.
const WEBHOOK_SECRET_SEGMENT = /^(\/api\/automation\/webhooks\/[^/?#]+\/)[^?#]+/i;
const TOKEN_SEGMENT =
  /^(\/invite\/|\/reset-password\/|\/api\/app\/invitations\/(?!accept(?:[/?#]|$)|inv_))[^/?#]+/i;

// Meta's webhook handshake carries the verify token in the query.
const VERIFY_TOKEN_PARAM = /([?&]hub\.verify_token=)[^&#]*/gi;

/** The URL as it may be logged or echoed, with the secrets it carries replaced. */
export function redactUrl(url: string): string {
  return url
    .replace(WEBHOOK_SECRET_SEGMENT, '$1[redacted]')
    .replace(VERIFY_TOKEN_PARAM, '$1[redacted]')
    .replace(TOKEN_SEGMENT, '$1[redacted]');
}
