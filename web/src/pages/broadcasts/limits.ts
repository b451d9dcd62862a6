import { BROADCAST_LIMITS, FIELD_LIMITS } from '../../../../src/lib/field-limits';

/** The longest each broadcast input takes: the server's schemas read the same figures. */
export const LIMITS = {
  name: FIELD_LIMITS.broadcastName,
  text: FIELD_LIMITS.broadcastValue,
  traitKey: FIELD_LIMITS.traitKey,
  traitValue: FIELD_LIMITS.broadcastValue,
  tag: FIELD_LIMITS.tag,
  link: FIELD_LIMITS.mediaLink,
  ...BROADCAST_LIMITS,
} as const;
