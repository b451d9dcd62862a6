import { useState } from 'react';
import { api, formatDate, useApi } from '../../api';
import { ArchiveButton } from '../../confirm';
import { Link } from '../../router';
import type { FormAnswer } from '../../server-types';
import { useSession } from '../../session';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { Tabs } from '../../ui/Tabs';
import { useAction } from '../../ui/use-action';
import { AfterSubmit } from './AfterSubmit';
import { FORM_ARCHIVE_EFFECT } from './archive-effect';
import { FieldEditor } from './FieldEditor';
import { PublishEmbed } from './PublishEmbed';

type Tab = 'fields' | 'settings' | 'publish';

export function FormPage({ id }: { id: string }) {
  const res = useApi<FormAnswer>(`/forms/${encodeURIComponent(id)}`);
  const [tab, setTab] = useState<Tab>('fields');
  const toggle = useAction();
  const { session } = useSession();
  if (res.loading && !res.data) return <Loading />;
  if (res.error || !res.data) return <ErrorNote message={res.error ?? 'Not found'} onRetry={res.reload} />;
  const { form, publish, field_types } = res.data;
  return (
    <>
      <PageHeader
        title={form.name}
        description={
          <>
            <Link href="/forms">Forms</Link> · {form.leads} leads ·{' '}
            <Link href={`/leads?source=form`}>see leads</Link>
          </>
        }
        actions={
          <>
            {session.can_manage && (
              <ArchiveButton
                base="/forms"
                id={form.id}
                archived={form.archived_at !== null}
                what="form"
                effect={FORM_ARCHIVE_EFFECT}
                onDone={res.reload}
              />
            )}
            <label className="switch">
              <input
                type="checkbox"
                role="switch"
                aria-checked={form.active}
                checked={form.active}
                disabled={toggle.busy}
                onChange={(e) =>
                  toggle.run(async () => {
                    await api('PATCH', `/forms/${form.id}`, { active: e.target.checked });
                  })
                }
              />
              <span>{form.active ? 'Active: accepting leads' : 'Draft: submissions are refused'}</span>
            </label>
          </>
        }
      />
      {form.archived_at && (
        <p className="notice" role="status">
          Archived {formatDate(form.archived_at)}: its page says the form is closed. Restore it to take
          submissions again.
        </p>
      )}
      {toggle.error && <ErrorNote message={toggle.error} />}
      <Tabs
        tabs={[
          { id: 'fields', label: 'Fields' },
          { id: 'settings', label: 'After submit' },
          { id: 'publish', label: 'Publish & embed' },
        ]}
        value={tab}
        onChange={setTab}
      />
      <div className="tab-body">
        {tab === 'fields' && <FieldEditor form={form} types={field_types} />}
        {tab === 'settings' && <AfterSubmit form={form} />}
        {tab === 'publish' && <PublishEmbed form={form} publish={publish} />}
      </div>
    </>
  );
}
