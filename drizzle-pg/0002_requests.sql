CREATE TABLE "requests" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"run_id" text NOT NULL,
	"kind" text NOT NULL,
	"task_id" text,
	"choices" text,
	"asked_at" bigint NOT NULL,
	"answer" text,
	"answered_by" text,
	"answered_at" bigint,
	"taken_by" text,
	"taken_at" bigint,
	CONSTRAINT "requests_kind_check" CHECK ("kind" in ('input', 'approval', 'plan', 'failure'))
);
--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "requests_session_id_idx" ON "requests" USING btree ("session_id");