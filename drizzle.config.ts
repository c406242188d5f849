import { defineConfig } from 'drizzle-kit';

/** drizzle-kit settings: `npx drizzle-kit generate` writes a migration after a schema change. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/store/sqlite/schema.ts',
  out: './drizzle',
});
