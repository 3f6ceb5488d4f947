import type { NextConfig } from 'next';

// Next only renders pages and client components; all server code (database, queue, worker threads,
// sandbox) runs in the tsx process of server/main.ts and is reached through tRPC, never bundled here.
const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Type checking is `npm run typecheck` over the whole repository; doing it again inside
  // `next build` would only slow the build down.
  typescript: { ignoreBuildErrors: true },
  devIndicators: false,
};

export default nextConfig;
