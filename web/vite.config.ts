import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into dist/web, which the server serves at / (src/http/web-app.ts). `npm run dev:web` proxies
// the API to a server on port 3000. The folder is not emptied first: a server already running keeps
// finding the assets its index.html names while another build writes new ones beside them.
// The server takes only its APP_URL's Origin (by default http://127.0.0.1:3000), so the proxy
// presents that rather than the dev server's.
const API = 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: false, chunkSizeWarningLimit: 800 },
  server: { proxy: { '/api': { target: API, headers: { origin: API } }, '/f': API } },
});
