import { type Static, Type } from 'typebox';

export const ImportParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const RefusalPage = Type.Object({
  limit: Type.Integer({ minimum: 0, maximum: 1000, default: 100, description: 'Refused rows to list' }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

export const ImportResult = Type.Object({
  result: Type.Literal(true),
  import: Type.Object({
    id: Type.String(),
    status: Type.Union(
      [Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('stopped')],
      {
        description: "stopped: the plan's contact limit was reached (see stopped_reason)",
      },
    ),
    file_name: Type.Union([Type.String(), Type.Null()]),
    total_rows: Type.Integer({ description: 'Rows below the header' }),
    processed_rows: Type.Integer(),
    created: Type.Integer(),
    updated: Type.Integer(),
    refused: Type.Integer(),
    stopped_reason: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }),
  refusals: Type.Array(
    Type.Object({
      row: Type.Integer({ description: 'As a spreadsheet numbers it: the header is row 1' }),
      reason: Type.String(),
    }),
  ),
});

export type ImportView = Static<typeof ImportResult>['import'];
