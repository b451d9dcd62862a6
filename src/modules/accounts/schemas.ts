import { Type } from 'typebox';
import { Text } from '../../http/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';

export const Email = Text({ minLength: 3, maxLength: FIELD_LIMITS.email, format: 'email' });
export const Password = Text({ minLength: 10, maxLength: FIELD_LIMITS.password });
const PersonName = Text({ maxLength: FIELD_LIMITS.personName });
export const WorkspaceName = Text({ minLength: 1, maxLength: FIELD_LIMITS.workspaceName });
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

export const InviteBody = Type.Object({ email: Email, role: RoleName }, { additionalProperties: false });

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
