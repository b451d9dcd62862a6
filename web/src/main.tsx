import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './App';
import { queryClient } from './api';
import { applyLanguage, i18n } from './i18n/init';
import { browserLanguage } from './i18n/languages';
import './styles.css';

// The browser's language until the session names the person's: what shows while it loads, or why it failed.
void applyLanguage(browserLanguage(navigator.languages));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </I18nextProvider>
  </StrictMode>,
);
