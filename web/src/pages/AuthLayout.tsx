import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('shell');
  useEffect(() => {
    document.title = t('tabTitle', { section: title });
  }, [title, t]);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand auth-brand">
          <span className="logo" aria-hidden="true" />
          Parley
        </div>
        <h1>{title}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
        {children}
      </div>
    </main>
  );
}
