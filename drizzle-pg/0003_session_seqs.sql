CREATE TABLE "session_seqs" (
	"session_id" text PRIMARY KEY NOT NULL,
	"last_seq" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_seqs" ADD CONSTRAINT "session_seqs_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Each session's counter starts where its event log stands.
INSERT INTO "session_seqs" ("session_id", "last_seq") SELECT "session_id", max("seq") FROM "events" GROUP BY "session_id";
