import { Type } from 'typebox';
import { PageCursor, PageLimit, Text } from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { Lead, LeadNote, ListedLead } from './schemas.js';

// REST v1's leads: the web app's lead, lists paged by cursor, and an example of each.

const STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'] as const;
export const LeadStatus = Type.Unsafe<(typeof STATUSES)[number]>({
  type: 'string',
  enum: [...STATUSES],
  description: 'new, contacted, qualified, won or lost',
});
const Id = Text({ minLength: 1, maxLength: 64 });

export const Limit = PageLimit;
export const Cursor = Type.Optional(PageCursor);
export const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' });
const Moment = (description: string) =>
  Type.Optional(Text({ maxLength: 40, format: 'date-time', description }));

export const ApiLeadQuery = Type.Object({
  status: Type.Optional(LeadStatus),
  form_id: Type.Optional({ ...Id, description: "Leads of this form's submissions" }),
  automation_id: Type.Optional({
    ...Id,
    description: "Leads that came in through this sequence's webhook or that it ran for",
  }),
  since: Moment('Leads created at or after this moment (ISO 8601 with a time zone)'),
  until: Moment('Leads created before this moment (ISO 8601 with a time zone)'),
  limit: Limit,
  cursor: Cursor,
});

const { limit: _limit, cursor: _cursor, ...filters } = ApiLeadQuery.properties;
export const ApiLeadExportQuery = Type.Object(filters);

export const LEADS_CSV_EXAMPLE =
  'id,name,email,phone,status,source,source_name,contact_id,created_at,fields\r\n' +
  'ld_8f2k3j4h5g6f7d8s,Asha Rao,asha@example.com,+919876543210,new,form,Contact form,ct_5d6e7f8a9b0c1d2e,' +
  '2026-11-27T09:30:00.000Z,"{""name"": ""Asha Rao"", ""email"": ""asha@example.com""}"\r\n';

const LISTED = {
  id: 'ld_8f2k3j4h5g6f7d8s',
  name: 'Asha Rao',
  email: 'asha@example.com',
  phone: '+919876543210',
  status: 'new',
  source: 'form',
  source_id: 'fm_2b7c9d1e3f4a5b6c',
  source_name: 'Contact form',
  contact_id: 'ct_5d6e7f8a9b0c1d2e',
  owner_id: null,
  owner_name: null,
  archived_at: null,
  created_at: '2026-11-27T09:30:00.000Z',
};
const NOTE = {
  id: 'ln_4c5d6e7f8a9b0c1d',
  body: 'Called back: wants a demo on Friday.',
  author_id: null,
  author_name: null,
  created_at: '2026-11-27T10:05:00.000Z',
};

export const ApiLeadList = Type.Object(
  { result: Type.Literal(true), leads: Type.Array(ListedLead), next_cursor: NextCursor },
  { examples: [{ result: true, leads: [LISTED], next_cursor: null }] },
);

export const ApiLeadResult = Type.Object(
  { result: Type.Literal(true), lead: Lead },
  {
    examples: [
      {
        result: true,
        lead: {
          ...LISTED,
          fields: { name: 'Asha Rao', email: 'asha@example.com', company_size: '11-50' },
          labels: { name: 'Name', email: 'E-mail', company_size: 'Company size' },
          updated_at: '2026-11-27T09:30:00.000Z',
        },
      },
    ],
  },
);

export const ApiLeadPatch = Type.Object(
  {
    status: Type.Optional(LeadStatus),
    owner_id: Type.Optional(
      Type.Union([Id, Type.Null()], { description: "A member's user id; null for nobody" }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ status: 'qualified', owner_id: 'usr_3a4b5c6d7e8f9a0b' }],
  },
);

export const ApiNoteList = Type.Object(
  { result: Type.Literal(true), notes: Type.Array(LeadNote), next_cursor: NextCursor },
  { examples: [{ result: true, notes: [NOTE], next_cursor: null }] },
);

export const ApiNoteQuery = Type.Object({ limit: Limit, cursor: Cursor });

export const ApiNoteBody = Type.Object(
  { text: Text({ minLength: 1, maxLength: FIELD_LIMITS.leadNote }) },
  { additionalProperties: false, examples: [{ text: 'Called back: wants a demo on Friday.' }] },
);

export const ApiNoteResult = Type.Object(
  { result: Type.Literal(true), note: LeadNote },
  { examples: [{ result: true, note: NOTE }] },
);
