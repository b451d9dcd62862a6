import { useState } from 'react';
import { api } from '../../api';
import { navigate } from '../../router';
import type { ContactAnswer } from '../../server-types';
import { ErrorNote } from '../../ui/ErrorNote';
import { InputField } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';
import { NameEmailFields } from './ContactEditors';

/** Adds one contact by hand: the REST API's rules, each refusal shown beside its field. */
export function NewContact({ onClose }: { onClose: () => void }) {
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const create = useAction();
  const submit = () =>
    create.run(async () => {
      const r = await api<ContactAnswer>('POST', '/contacts', {
        phone: phone.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(email.trim() ? { email: email.trim() } : {}),
      });
      navigate(`/contacts/${r.contact.id}`);
    });
  const errors = create.fieldErrors;
  const general = create.error && !errors.phone && !errors.name && !errors.email;
  return (
    <Modal title="New contact" onClose={onClose}>
      <form className="stack" noValidate onSubmit={submitHandler(submit)}>
        <InputField
          label="Phone"
          hint="With the country code, such as +44 7700 900123."
          error={errors.phone}
          aria-invalid={errors.phone ? true : undefined}
          type="tel"
          required
          maxLength={32}
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
        />
        <NameEmailFields
          name={name}
          email={email}
          errors={errors}
          onChange={(next) => {
            if (next.name !== undefined) setName(next.name);
            if (next.email !== undefined) setEmail(next.email);
          }}
        />
        {general && <ErrorNote message={create.error!} />}
        <div className="row">
          <button type="submit" className="btn primary" disabled={create.busy}>
            Add contact
          </button>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
