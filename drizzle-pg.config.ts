import { defineConfig } from 'drizzle-kit';

/**
 * drizzle-kit settings for the PostgreSQL store: `npx drizzle-kit generate --config
 * drizzle-pg.config.ts` writes a migration into drizzle-pg/ after a change of its schema.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/postgres/schema.ts',
  out: './drizzle-pg',
});
