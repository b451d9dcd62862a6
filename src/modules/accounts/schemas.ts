import { Type } from 'typebox';
import { NameText, Text, Timestamp } from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { LANGUAGES, type Language } from './languages.js';

export const Email = Text({ minLength: 3, maxLength: FIELD_LIMITS.email, format: 'email' });
export const Password = Text({ minLength: 10, maxLength: FIELD_LIMITS.password });
const PersonName = NameText({ maxLength: FIELD_LIMITS.personName });
export const WorkspaceName = NameText({ minLength: 1, maxLength: FIELD_LIMITS.workspaceName });
export const CountryCode = Type.Union([Type.String({ pattern: '^\\+?[0-9]{1,4}$' }), Type.Null()]);
export const RoleName = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);

export const SetupBody = Type.Object(
  {
    email: Email,
    password: Password,
    name: Type.Optional(PersonName),
    workspace_name: WorkspaceName,
    default_country_code: Type.Optional(CountryCode),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  { email: Text({ minLength: 1, maxLength: 254 }), password: Text({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const InviteBody = Type.Object(
  {
    email: Email,
    role: RoleName,
    send_email: Type.Optional(
      Type.Boolean({
        description: 'Also e-mail the link to the invitee (needs SMTP_URL); it is still returned',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ForgotBody = Type.Object(
  { email: Text({ minLength: 1, maxLength: FIELD_LIMITS.email }) },
  { additionalProperties: false },
);

export const ResetBody = Type.Object(
  { token: Text({ minLength: 1, maxLength: 100 }), password: Password },
  { additionalProperties: false },
);

export const AcceptBody = Type.Object(
  { token: Text({ minLength: 1, maxLength: 100 }), password: Password, name: Type.Optional(PersonName) },
  { additionalProperties: false },
);

export const TokenParams = Type.Object({ token: Text({ minLength: 1, maxLength: 100 }) });
export const IdParams = Type.Object({ id: Text({ minLength: 1, maxLength: 64 }) });

export const RoleBody = Type.Object({ role: RoleName }, { additionalProperties: false });

export const NewWorkspaceBody = Type.Object(
  { name: WorkspaceName, default_country_code: Type.Optional(CountryCode) },
  { additionalProperties: false },
);

export const SwitchBody = Type.Object(
  { workspace_id: Text({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** Settings › Team: the members, earliest first, and the invitations still open. */
export const TeamResult = Type.Object({
  result: Type.Literal(true),
  members: Type.Array(
    Type.Object({
      id: Type.String(),
      email: Type.String(),
      name: Type.String(),
      role: RoleName,
      created_at: Timestamp,
    }),
  ),
  invitations: Type.Array(
    Type.Object({
      id: Type.String(),
      email: Type.String(),
      role: RoleName,
      created_at: Timestamp,
      expires_at: Timestamp,
    }),
  ),
});

/** What the invited person sees before accepting. */
export const InvitationPreviewResult = Type.Object({
  result: Type.Literal(true),
  invitation: Type.Object({
    email: Type.String(),
    role: RoleName,
    workspace_name: Type.String(),
    has_account: Type.Boolean({ description: 'They sign in with their password instead of choosing one' }),
  }),
});

/** The invitation's link, shown to the inviter to pass on. */
export const NewInvitationResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  url: Type.String(),
  /** Whether the link was also sent to the address by e-mail. */
  emailed: Type.Boolean(),
});

const LanguageCode = Type.Unsafe<Language>(Type.Union(LANGUAGES.map((l) => Type.Literal(l))));

export const LanguageBody = Type.Object(
  {
    language: Type.Union([LanguageCode, Type.Null()], {
      description: "One of the web app's languages; null follows the browser's language",
    }),
  },
  { additionalProperties: false },
);

export const LanguageResult = Type.Object({
  result: Type.Literal(true),
  language: Type.Union([LanguageCode, Type.Null()]),
});
