/**
 * The channel on which every instance hears what to drop from its API key cache: `key:<hash>` for a
 * revoked key, `workspace:<id>` for a workspace whose default country code changed. The NOTIFY is part
 * of the statement that makes the change, so it is sent when, and only if, that change commits.
 */
export const KEY_NOTICES = 'parley_api_keys';
