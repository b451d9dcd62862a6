// No imports: the web app takes this from here too (its composer writes tokens, its notes show names).
/**
 * How a note names a teammate: `<@usr_…>`, their user id. The app's composer writes it when a member
 * is picked after `@`; a REST v1 client writes it itself. Anything else (`@Tara`, another workspace's
 * user id) stays plain text.
 */
export const MENTION = /<@(usr_[A-Za-z0-9]{1,40})>/g;

export const mentionToken = (userId: string) => `<@${userId}>`;
