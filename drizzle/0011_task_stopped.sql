PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text,
	`plan_id` text,
	`parent_id` text,
	`queue` text DEFAULT 'default' NOT NULL,
	`key` text,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`check_command` text,
	`run_settings` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`sequence` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`result_summary` text,
	`fail_reason` text,
	`lease_owner` text,
	`lease_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`parent_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "tasks_status_check" CHECK("status" in ('pending', 'in_progress', 'completed', 'failed', 'blocked', 'skipped', 'cancelled', 'stopped'))
);
--> statement-breakpoint
INSERT INTO `__new_tasks`("id", "session_id", "plan_id", "parent_id", "queue", "key", "title", "description", "check_command", "run_settings", "status", "sequence", "attempts", "result_summary", "fail_reason", "lease_owner", "lease_expires_at", "created_at", "updated_at") SELECT "id", "session_id", "plan_id", "parent_id", "queue", "key", "title", "description", "check_command", "run_settings", "status", "sequence", "attempts", "result_summary", "fail_reason", "lease_owner", "lease_expires_at", "created_at", "updated_at" FROM `tasks`;--> statement-breakpoint
DROP TABLE `tasks`;--> statement-breakpoint
ALTER TABLE `__new_tasks` RENAME TO `tasks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `tasks_queue_status_sequence_idx` ON `tasks` (`queue`,`status`,`sequence`);--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_queue_sequence_idx` ON `tasks` (`queue`,`sequence`);--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_plan_id_key_idx` ON `tasks` (`plan_id`,`key`) WHERE "plan_id" is not null;--> statement-breakpoint
CREATE INDEX `tasks_lease_expires_at_idx` ON `tasks` (`lease_expires_at`) WHERE "status" = 'in_progress';