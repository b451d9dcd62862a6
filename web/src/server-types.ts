// The web app's view of the server's answers, taken from the TypeBox schemas the server answers with
// (src/modules/*/schemas.ts): type-only imports, erased by the build, so no server code reaches the bundle.
import type { Static } from 'typebox';
import type {
  InvitationPreviewResult,
  NewInvitationResult,
  TeamResult,
} from '../../src/modules/accounts/schemas';
import type { ApiKeyListResult, NewApiKeyResult } from '../../src/modules/api-keys/schemas';
import type { AuditListResult } from '../../src/modules/audit/schemas';
import type {
  AutomationListResult,
  AutomationResult,
  NewAutomationResult,
  RunListResult,
  RunResult,
} from '../../src/modules/automation/schemas';
import type {
  AudienceResult,
  Audience as BroadcastAudience,
  ListResult as BroadcastListResult,
  BroadcastResult,
  Values as BroadcastValues,
  PreviewResult,
  RecipientsResult,
  TimelineResult,
} from '../../src/modules/broadcasts/schemas';
import type { ImportResult } from '../../src/modules/contacts/csv/schemas';
import type {
  AppContactDetail,
  AppContactList,
  AppContactResult,
  TagListResult,
} from '../../src/modules/contacts/schemas';
import type { DashboardResult } from '../../src/modules/dashboard/schemas';
import type { FormListResult, FormResult, NewFormResult } from '../../src/modules/forms/schemas';
import type { ConversationResult } from '../../src/modules/inbox/conversation-schemas';
import type { InboxResult, QuickReplyListResult, UnreadResult } from '../../src/modules/inbox/schemas';
import type { LeadListResult, LeadNoteResult, LeadResult } from '../../src/modules/leads/schemas';
import type { NumberResult } from '../../src/modules/messaging/schemas';
import type { RetentionResult } from '../../src/modules/retention/schemas';
import type { BusinessHoursResult } from '../../src/modules/routing/business-hours-schemas';
import type {
  SatisfactionResult,
  SurveySettingsResult,
} from '../../src/modules/routing/satisfaction-schemas';
import type {
  AvailabilityResult,
  RoutingResult,
  TeamListResult as RoutingTeamListResult,
} from '../../src/modules/routing/schemas';
import type {
  AppTemplate,
  AppTemplateList,
  HeaderSampleResult,
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
export type HeaderSample = Static<typeof HeaderSampleResult>;
export type TemplateComponentView = Static<typeof TemplateComponent>;
export type TemplateList = Static<typeof AppTemplateList>;
export type TemplateSync = Static<typeof TemplateSyncResult>;

export type WorkspaceAnswer = Static<typeof WorkspaceResult>;
export type Workspace = WorkspaceAnswer['workspace'];
export type Usage = Static<typeof UsageResult>;
export type RetentionAnswer = Static<typeof RetentionResult>;
export type Retention = RetentionAnswer['retention'];
export type BusinessHoursAnswer = Static<typeof BusinessHoursResult>;
export type BusinessHours = BusinessHoursAnswer['business_hours'];
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
export type AuditList = Static<typeof AuditListResult>;
export type AuditEntry = AuditList['entries'][number];

export type FormList = Static<typeof FormListResult>;
export type FormAnswer = Static<typeof FormResult>;
export type NewForm = Static<typeof NewFormResult>;
export type Form = FormAnswer['form'];
export type FormField = Form['fields'][number];

export type ImportAnswer = Static<typeof ImportResult>;

export type ContactList = Static<typeof AppContactList>;
export type Contact = ContactList['contacts'][number];
export type ContactAnswer = Static<typeof AppContactResult>;
export type ContactDetail = Static<typeof AppContactDetail>;
export type TagList = Static<typeof TagListResult>;

export type AutomationList = Static<typeof AutomationListResult>;
export type AutomationAnswer = Static<typeof AutomationResult>;
export type Automation = AutomationAnswer['automation'];
export type NewAutomation = Static<typeof NewAutomationResult>;
export type RunList = Static<typeof RunListResult>;
export type Run = RunList['runs'][number];
export type RunAnswer = Static<typeof RunResult>;
export type RunDetail = RunAnswer['run'];
export type RunStep = RunDetail['steps'][number];

export type Dashboard = Static<typeof DashboardResult>;

export type InboxList = Static<typeof InboxResult>;
export type InboxRow = InboxList['conversations'][number];
export type ConversationState = InboxRow['state'];
export type UnreadCount = Static<typeof UnreadResult>;
export type QuickReplyList = Static<typeof QuickReplyListResult>;
export type Conversation = Static<typeof ConversationResult>;
export type ConversationMessage = Conversation['messages'][number];
export type ConversationNote = Conversation['notes'][number];

export type LeadList = Static<typeof LeadListResult>;
export type ListedLead = LeadList['leads'][number];
export type LeadAnswer = Static<typeof LeadResult>;
export type LeadNote = Static<typeof LeadNoteResult>['note'];

export type BroadcastList = Static<typeof BroadcastListResult>;
export type BroadcastAnswer = Static<typeof BroadcastResult>;
export type Broadcast = BroadcastAnswer['broadcast'];
export type RecipientList = Static<typeof RecipientsResult>;
export type BroadcastTimeline = Static<typeof TimelineResult>;
export type AudienceCount = Static<typeof AudienceResult>;
export type BroadcastPreview = Static<typeof PreviewResult>;
export type Audience = Static<typeof BroadcastAudience>;
export type Values = Static<typeof BroadcastValues>;

export type SurveySettingsAnswer = Static<typeof SurveySettingsResult>;
export type Satisfaction = Static<typeof SatisfactionResult>;
export type RoutingTeamList = Static<typeof RoutingTeamListResult>;
export type RoutingTeam = RoutingTeamList['teams'][number];
export type RoutingAnswer = Static<typeof RoutingResult>;
export type AvailabilityAnswer = Static<typeof AvailabilityResult>;
