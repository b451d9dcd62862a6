// What a name or label must not hold: C0 and C1 controls, DEL, the line and paragraph separators. A
// line break in a workspace's name would start a new line in the body of its invitation e-mail.
export const CONTROL_CHARACTERS = '\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029';

const CONTROL = new RegExp(`[${CONTROL_CHARACTERS}]`);
const CONTROL_RUNS = new RegExp(`[${CONTROL_CHARACTERS}]+`, 'g');

/** What a refusal says, beside the field. */
export const ONE_LINE_WORDS = 'Remove the line breaks, tabs and other control characters.';

export const isOneLine = (text: string): boolean => !CONTROL.test(text);

/** The text with each run of control characters made one space: a line break in a CSV cell, say. */
export const oneLine = (text: string): string => text.replace(CONTROL_RUNS, ' ').trim();
