CREATE TABLE `commands` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`run_id` text NOT NULL,
	`call_id` text NOT NULL,
	`task_id` text,
	`command` text NOT NULL,
	`pgid` integer NOT NULL,
	`owner_pid` integer NOT NULL,
	`started_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `commands_session_id_idx` ON `commands` (`session_id`);