// The web app's view of the server's answers, taken from the TypeBox schemas the server answers with
// (src/modules/*/schemas.ts): type-only imports, erased by the build, so no server code reaches the bundle.
import type { Static } from 'typebox';
import type {
  InvitationPreviewResult,
  NewInvitationResult,
  TeamResult,
} from '../../src/modules/accounts/schemas';
import type { ApiKeyListResult, NewApiKeyResult } from '../../src/modules/api-keys/schemas';
import type { ImportResult } from '../../src/modules/contacts/csv/schemas';
import type { FormListResult, FormResult, NewFormResult } from '../../src/modules/forms/schemas';
import type { NumberResult } from '../../src/modules/messaging/schemas';
import type {
  AppTemplate,
  AppTemplateList,
  TemplateComponent,
  TemplateSyncResult,
} from '../../src/modules/templates/schemas';
import type {
  DeliveryListResult,
  EndpointListResult,
  NewEndpointResult,
  TestDeliveryResult,
} from '../../src/modules/webhooks/schemas';
import type { UsageResult, WorkspaceResult } from '../../src/modules/workspaces/schemas';

export type Template = Static<typeof AppTemplate>;
export type TemplateComponentView = Static<typeof TemplateComponent>;
export type TemplateList = Static<typeof AppTemplateList>;
export type TemplateSync = Static<typeof TemplateSyncResult>;

export type WorkspaceAnswer = Static<typeof WorkspaceResult>;
export type Workspace = WorkspaceAnswer['workspace'];
export type Usage = Static<typeof UsageResult>;
export type Team = Static<typeof TeamResult>;
export type NewInvitation = Static<typeof NewInvitationResult>;
export type InvitationPreview = Static<typeof InvitationPreviewResult>;
export type ApiKeyList = Static<typeof ApiKeyListResult>;
export type NewApiKey = Static<typeof NewApiKeyResult>;
export type NumberAnswer = Static<typeof NumberResult>;
export type WebhookInfo = NumberAnswer['webhook'];
export type EndpointList = Static<typeof EndpointListResult>;
export type Endpoint = EndpointList['endpoints'][number];
export type DeliveryList = Static<typeof DeliveryListResult>;
export type NewEndpoint = Static<typeof NewEndpointResult>;
export type TestDelivery = Static<typeof TestDeliveryResult>;

export type FormList = Static<typeof FormListResult>;
export type FormAnswer = Static<typeof FormResult>;
export type NewForm = Static<typeof NewFormResult>;
export type Form = FormAnswer['form'];
export type FormField = Form['fields'][number];

export type ImportAnswer = Static<typeof ImportResult>;
