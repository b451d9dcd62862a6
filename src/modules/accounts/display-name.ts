/**
 * How a teammate is named to the others, in SQL over a `users` row aliased `alias`: the name, or the
 * e-mail address for someone who never gave one (invited members start nameless).
 */
export const displayName = (alias: string) => `COALESCE(NULLIF(${alias}.name, ''), ${alias}.email)`;
