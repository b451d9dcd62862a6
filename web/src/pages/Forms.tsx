import { useState } from 'react';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api, formatDate, useApi } from '../api';
import { ArchiveButton, ArchivedToggle } from '../confirm';
import { ListTable } from '../list';
import { Link, navigate } from '../router';
import type { FormList, NewForm } from '../server-types';
import { useSession } from '../session';
import { Badge } from '../ui/Badge';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { ErrorNote } from '../ui/ErrorNote';
import { InputField } from '../ui/Field';
import { PageHeader } from '../ui/PageHeader';
import { submitHandler } from '../ui/submit-handler';
import { useAction } from '../ui/use-action';
import { FORM_ARCHIVE_EFFECT } from './forms/archive-effect';

export function FormsPage() {
  const { session } = useSession();
  const [archived, setArchived] = useState(false);
  const list = useApi<FormList>(`/forms${archived ? '?archived=true' : ''}`);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const create = useAction();
  const add = () => {
    if (!name.trim()) return setNameError('Give the form a name, e.g. "Contact form".');
    return create.run(async () => {
      const r = await api<NewForm>('POST', '/forms', { name: name.trim() });
      navigate(`/forms/${r.id}`);
    });
  };
  return (
    <>
      <PageHeader
        title="Forms"
        description="Lead capture forms: host them on Parley, embed them with a script, or paste plain HTML. A new form is a draft until you switch it on."
        actions={<ArchivedToggle value={archived} onChange={setArchived} />}
      />
      <Card title="New form">
        <form className="row wrap align-end" onSubmit={submitHandler(add)}>
          <InputField
            label="Form name"
            value={name}
            maxLength={FIELD_LIMITS.formName}
            placeholder="Contact form"
            error={nameError}
            aria-invalid={Boolean(nameError)}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(undefined);
            }}
          />
          <button type="submit" className="btn primary" disabled={create.busy}>
            Create form
          </button>
        </form>
        {create.error && <ErrorNote message={create.error} />}
      </Card>
      <Card>
        <ListTable
          list={list}
          items={list.data?.forms}
          empty={
            archived ? (
              <Empty icon="☰" title="No archived forms" />
            ) : (
              <Empty icon="☰" title="No forms yet">
                Create one above: it starts with name, e-mail and phone fields. Each submission becomes a
                lead, linked to a contact by phone.
              </Empty>
            )
          }
          head={
            <>
              <th>Form</th>
              <th>Status</th>
              <th>Leads</th>
              <th className="hide-sm">Created</th>
              {archived && session.can_manage && <th>Restore</th>}
            </>
          }
          row={(f) => (
            <tr key={f.id} className="clickable" onClick={() => navigate(`/forms/${f.id}`)}>
              <td>
                <Link href={`/forms/${f.id}`} className="strong-link">
                  {f.name}
                </Link>
                <div className="small muted">{f.fields.length} fields</div>
              </td>
              <td>
                <Badge>{f.archived_at ? 'archived' : f.active ? 'active' : 'draft'}</Badge>
              </td>
              <td>{f.leads}</td>
              <td className="muted hide-sm">{formatDate(f.created_at)}</td>
              {archived && session.can_manage && (
                <td>
                  <ArchiveButton
                    small
                    base="/forms"
                    id={f.id}
                    archived
                    what="form"
                    effect={FORM_ARCHIVE_EFFECT}
                    onDone={list.reload}
                  />
                </td>
              )}
            </tr>
          )}
        />
      </Card>
    </>
  );
}
