import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Untranslated } from '../i18n/Untranslated';
import { withElements } from '../i18n/with-elements';
import { navigate } from '../router';
import { useSession } from '../session';
import { PageHeader } from '../ui/PageHeader';
import { Tabs } from '../ui/Tabs';
import { AuditLogSettings } from './settings/AuditLog';
import { BusinessHoursSettings } from './settings/BusinessHours';
import { DeveloperSettings } from './settings/Developer';
import { GeneralSettings } from './settings/General';
import { NumberSettings } from './settings/Number';
import { PlanSettings } from './settings/Plan';
import { SatisfactionSettings } from './settings/Satisfaction';
import { TeamSettings } from './settings/Team';
import { TeamsSettings } from './settings/Teams';

const TABS = [
  'general',
  'team',
  'routing',
  'hours',
  'number',
  'developer',
  'plan',
  'survey',
  'audit',
] as const;
type Tab = (typeof TABS)[number];

export function SettingsPage({ tab }: { tab?: string }) {
  const { session } = useSession();
  const { t } = useTranslation('settings');
  const { t: shell } = useTranslation('shell');
  // The audit log is for owners and admins: members do not see its tab.
  const tabs = TABS.filter((id) => id !== 'audit' || session.can_manage).map((id) => ({
    id,
    label: t(`tabs.${id}`),
  }));
  const current: Tab = tabs.some((x) => x.id === tab) ? (tab as Tab) : 'general';
  const [, force] = useState(0);
  return (
    <>
      <PageHeader
        title={t('title')}
        description={withElements(
          (values) => t('description', { ...values, role: shell(`role.${session.role}`) }),
          { workspace: <bdi>{session.workspace.name}</bdi> },
        )}
      />
      <Tabs
        tabs={tabs}
        value={current}
        onChange={(id) => {
          navigate(`/settings/${id}`);
          force((n) => n + 1);
        }}
      />
      <div className="tab-body">
        {current === 'plan' ? <PlanSettings /> : <Untranslated>{untranslatedTab(current)}</Untranslated>}
      </div>
    </>
  );
}

/** The tabs not yet in the catalogs (issue 34): Plan & usage is. */
function untranslatedTab(tab: Tab) {
  switch (tab) {
    case 'general':
      return <GeneralSettings />;
    case 'team':
      return <TeamSettings />;
    case 'routing':
      return <TeamsSettings />;
    case 'hours':
      return <BusinessHoursSettings />;
    case 'number':
      return <NumberSettings />;
    case 'developer':
      return <DeveloperSettings />;
    case 'survey':
      return <SatisfactionSettings />;
    case 'audit':
      return <AuditLogSettings />;
    default:
      return null;
  }
}
