CREATE TABLE `requests` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`run_id` text NOT NULL,
	`kind` text NOT NULL,
	`task_id` text,
	`choices` text,
	`asked_at` integer NOT NULL,
	`answer` text,
	`answered_by` text,
	`answered_at` integer,
	`taken_by` text,
	`taken_at` integer,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "requests_kind_check" CHECK("kind" in ('input', 'approval', 'plan', 'failure'))
);
--> statement-breakpoint
CREATE INDEX `requests_session_id_idx` ON `requests` (`session_id`);