import { useState } from 'react';
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
  { id: 'general', label: 'General' },
  { id: 'team', label: 'Team' },
  { id: 'routing', label: 'Teams and assignment' },
  { id: 'hours', label: 'Business hours' },
  { id: 'number', label: 'Connected number' },
  { id: 'developer', label: 'Developer' },
  { id: 'plan', label: 'Plan & usage' },
  { id: 'survey', label: 'Satisfaction survey' },
  { id: 'audit', label: 'Audit log' },
] as const;
type Tab = (typeof TABS)[number]['id'];

export function SettingsPage({ tab }: { tab?: string }) {
  const { session } = useSession();
  // The audit log is for owners and admins: members do not see its tab.
  const tabs = TABS.filter((t) => t.id !== 'audit' || session.can_manage);
  const current: Tab = tabs.some((t) => t.id === tab) ? (tab as Tab) : 'general';
  const [, force] = useState(0);
  return (
    <>
      <PageHeader title="Settings" description={`${session.workspace.name} · you are ${session.role}`} />
      <Tabs
        tabs={[...tabs]}
        value={current}
        onChange={(t) => {
          navigate(`/settings/${t}`);
          force((n) => n + 1);
        }}
      />
      <div className="tab-body">
        {current === 'general' && <GeneralSettings />}
        {current === 'team' && <TeamSettings />}
        {current === 'routing' && <TeamsSettings />}
        {current === 'hours' && <BusinessHoursSettings />}
        {current === 'number' && <NumberSettings />}
        {current === 'developer' && <DeveloperSettings />}
        {current === 'plan' && <PlanSettings />}
        {current === 'survey' && <SatisfactionSettings />}
        {current === 'audit' && <AuditLogSettings />}
      </div>
    </>
  );
}
