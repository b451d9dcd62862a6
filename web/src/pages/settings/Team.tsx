import { useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api, formatDate, invalidate, useApi } from '../../api';
import { Table } from '../../list';
import type { NewInvitation, Team } from '../../server-types';
import { useSession } from '../../session';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field, InputField } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { Secret } from '../../ui/Secret';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

export function TeamSettings() {
  const { session } = useSession();
  const team = useApi<Team>('/team');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [byEmail, setByEmail] = useState(session.sends_mail);
  const [sent, setSent] = useState<{ url: string; emailedTo: string | null } | null>(null);
  const invite = useAction();
  const change = useAction();
  if (team.loading && !team.data) return <Loading />;
  if (team.error || !team.data)
    return <ErrorNote message={team.error ?? 'Not found'} onRetry={team.reload} />;
  const send = () =>
    invite.run(async () => {
      const r = await api<NewInvitation>('POST', '/invitations', {
        email,
        role,
        ...(byEmail && session.sends_mail ? { send_email: true } : {}),
      });
      setSent({ url: r.url, emailedTo: r.emailed ? email : null });
      setEmail('');
      await invalidate('/team');
    });
  // Members and invitations are written under their own paths but listed under /team.
  const act = (fn: () => Promise<unknown>) =>
    change.run(async () => {
      await fn();
      await invalidate('/team');
    });
  return (
    <div className="stack">
      {session.can_manage && (
        <Card
          title="Invite a teammate"
          description="They get a link to set their password and join this workspace. Owners and admins manage keys, webhooks and the team; members work with contacts, messages and templates."
        >
          <form className="row wrap align-end" onSubmit={submitHandler(send)}>
            <InputField
              label="E-mail"
              error={invite.fieldErrors.email}
              type="email"
              required
              maxLength={FIELD_LIMITS.email}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <Field label="Role">
              {(id) => (
                <select id={id} value={role} onChange={(e) => setRole(e.target.value)}>
                  <option value="member">Member</option>
                  <option value="admin">Admin</option>
                  {session.role === 'owner' && <option value="owner">Owner</option>}
                </select>
              )}
            </Field>
            {session.sends_mail && (
              <label className="check">
                <input type="checkbox" checked={byEmail} onChange={(e) => setByEmail(e.target.checked)} />{' '}
                Send it by e-mail
              </label>
            )}
            <button type="submit" className="btn primary" disabled={invite.busy}>
              Create invitation
            </button>
          </form>
          {invite.error && <ErrorNote message={invite.error} />}
          {sent && (
            <Secret
              value={sent.url}
              note={
                sent.emailedTo
                  ? `We are e-mailing this link to ${sent.emailedTo}; you can also copy it. It works once and expires in 7 days; it is not shown again.`
                  : 'Send this link to your teammate. It works once and expires in 7 days; it is not shown again.'
              }
            />
          )}
        </Card>
      )}
      <Card title="Members">
        {change.error && <ErrorNote message={change.error} />}
        <Table
          label="Members"
          head={
            <>
              <th>Name</th>
              <th>Role</th>
              <th>Joined</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </>
          }
        >
          {team.data.members.map((m) => (
            <tr key={m.id}>
              <td>
                <div>{m.name || m.email}</div>
                <div className="small muted">{m.email}</div>
              </td>
              <td>
                {session.can_manage && m.id !== session.user.id ? (
                  <select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    disabled={change.busy}
                    onChange={(e) => act(() => api('PATCH', `/members/${m.id}`, { role: e.target.value }))}
                  >
                    <option value="member">member</option>
                    <option value="admin">admin</option>
                    <option value="owner">owner</option>
                  </select>
                ) : (
                  <Badge>{m.role}</Badge>
                )}
              </td>
              <td className="muted">{formatDate(m.created_at)}</td>
              <td className="right">
                {session.can_manage && m.id !== session.user.id && (
                  <button
                    type="button"
                    className="btn small danger"
                    onClick={() =>
                      confirm(`Remove ${m.email} from this workspace?`) &&
                      act(() => api('DELETE', `/members/${m.id}`))
                    }
                  >
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Card>
      {team.data.invitations.length > 0 && (
        <Card title="Open invitations">
          <ul className="list">
            {team.data.invitations.map((i) => (
              <li key={i.id} className="list-row">
                <div className="grow">
                  <strong>{i.email}</strong> <Badge>{i.role}</Badge>
                  <div className="small muted">expires {formatDate(i.expires_at)}</div>
                </div>
                {session.can_manage && (
                  <button
                    type="button"
                    className="btn small"
                    onClick={() => act(() => api('DELETE', `/invitations/${i.id}`))}
                  >
                    Revoke
                  </button>
                )}
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
