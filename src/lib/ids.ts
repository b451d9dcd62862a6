import { customAlphabet } from 'nanoid';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const idBody = customAlphabet(ALPHANUMERIC, 20);
const secretBody = customAlphabet(ALPHANUMERIC, 32);

export type IdPrefix =
  | 'ws'
  | 'key'
  | 'ct'
  | 'tpl'
  | 'req'
  | 'pn'
  | 'med'
  | 'msg'
  | 'we'
  | 'evt'
  | 'ld'
  | 'fm'
  | 'usr'
  | 'inv'
  | 'fl'
  | 'sq'
  | 'ev'
  | 'run'
  | 'cc'
  | 'imp'
  | 'nt'
  | 'ntf'
  | 'qr'
  | 'brd'
  | 'ln'
  | 'csat'
  | 'team'
  | 'lbl'
  | 'sv';

/** Resource ids: a prefix that says what they name, then 119 random bits. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${idBody()}`;
}

/** 32 base62 characters: about 190 bits, for API keys and secrets. */
export function newSecret(prefix: string): string {
  return `${prefix}${secretBody()}`;
}
