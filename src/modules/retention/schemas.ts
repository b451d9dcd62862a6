import { type Static, Type } from 'typebox';
import { MAX_RETENTION_DAYS } from './settings.js';

const Days = (what: string) =>
  Type.Union([Type.Integer({ minimum: 1, maximum: MAX_RETENTION_DAYS }), Type.Null()], {
    description: `Days ${what} is kept, 1 to ${MAX_RETENTION_DAYS}; null keeps it for ever`,
  });

const Fields = {
  message_content_days: Days(
    "messages' content (text, template values, media and interactive parts) is; the message itself stays",
  ),
  media_days: Days('received and uploaded media files are'),
  finished_runs_days: Days('completed and failed flow and sequence runs (with their steps) are'),
  delivery_logs_days: Days('outbound webhook deliveries are (pending ones stay until done)'),
};

/** Settings › Workspace › Data retention. */
export const Retention = Type.Object(Fields);

export const RetentionResult = Type.Object(
  { result: Type.Literal(true), retention: Retention },
  {
    examples: [
      {
        result: true,
        retention: {
          message_content_days: 365,
          media_days: 90,
          finished_runs_days: 30,
          delivery_logs_days: 14,
        },
      },
    ],
  },
);

export const RetentionBody = Type.Object(
  {
    message_content_days: Type.Optional(Fields.message_content_days),
    media_days: Type.Optional(Fields.media_days),
    finished_runs_days: Type.Optional(Fields.finished_runs_days),
    delivery_logs_days: Type.Optional(Fields.delivery_logs_days),
  },
  { additionalProperties: false, examples: [{ message_content_days: 365, media_days: 90 }] },
);
export type RetentionBody = Static<typeof RetentionBody>;
