import { useState } from 'react';
import { useLiveEvents } from '../../live';

const supported = typeof Notification !== 'undefined';

/**
 * Browser notifications for customer messages while the app's tab is hidden: asked for only when
 * the teammate clicks, shown only once allowed.
 */
export function NotificationsToggle() {
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  useLiveEvents(['message'], (e) => {
    if (permission !== 'granted' || e.direction !== 'inbound' || !document.hidden) return;
    const n = new Notification('New customer message', {
      body: 'Open the inbox to read it',
      tag: e.contact_id ?? 'parley',
    });
    n.onclick = () => {
      window.focus();
      if (e.contact_id) location.assign(`/messages/${encodeURIComponent(e.contact_id)}`);
    };
  });
  if (!supported || permission !== 'default') return null;
  return (
    <button
      type="button"
      className="btn ghost small"
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      Notify me
    </button>
  );
}
