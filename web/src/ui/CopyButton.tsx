import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Copies `value`; says so for two seconds. */
export function CopyButton({ value, label: given }: { value: string; label?: string }) {
  const { t } = useTranslation('ui');
  const label = given ?? t('copy.label');
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(false), 2000);
    return () => clearTimeout(t);
  }, [done]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const area = document.createElement('textarea');
      area.value = value;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
  };
  return (
    <button
      type="button"
      className="btn small"
      onClick={copy}
      aria-label={done ? t('copy.ariaCopied', { label }) : t('copy.ariaCopy', { label })}
    >
      {done ? t('copy.copied') : label}
    </button>
  );
}
