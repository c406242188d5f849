CREATE TABLE `events` (
	`session_id` text NOT NULL,
	`seq` integer NOT NULL,
	`run_id` text NOT NULL,
	`type` text NOT NULL,
	`update_type` text,
	`payload` text NOT NULL,
	`ts` integer NOT NULL,
	PRIMARY KEY(`session_id`, `seq`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`run_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "messages_role_check" CHECK("role" in ('system', 'user', 'assistant', 'tool'))
);
--> statement-breakpoint
CREATE INDEX `messages_session_id_idx` ON `messages` (`session_id`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`run_id` text NOT NULL,
	`status` text DEFAULT 'proposed' NOT NULL,
	`feedback` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "plans_status_check" CHECK("status" in ('proposed', 'approved', 'rejected', 'completed', 'aborted'))
);
--> statement-breakpoint
CREATE INDEX `plans_session_id_idx` ON `plans` (`session_id`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`goal` text NOT NULL,
	`mode` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`final_answer` text,
	`steps` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "runs_mode_check" CHECK("mode" in ('simple', 'complex')),
	CONSTRAINT "runs_status_check" CHECK("status" in ('running', 'completed', 'stopped', 'max_steps', 'failed', 'needs_input'))
);
--> statement-breakpoint
CREATE INDEX `runs_session_id_idx` ON `runs` (`session_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`goal` text NOT NULL,
	`workspace` text NOT NULL,
	`model` text NOT NULL,
	`status` text DEFAULT 'idle' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "sessions_status_check" CHECK("status" in ('idle', 'running'))
);
--> statement-breakpoint
CREATE INDEX `sessions_updated_at_idx` ON `sessions` (`updated_at`);--> statement-breakpoint
CREATE TABLE `task_dependencies` (
	`task_id` text NOT NULL,
	`depends_on_id` text NOT NULL,
	PRIMARY KEY(`task_id`, `depends_on_id`),
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`depends_on_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `task_dependencies_depends_on_id_idx` ON `task_dependencies` (`depends_on_id`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text,
	`plan_id` text,
	`parent_id` text,
	`queue` text DEFAULT 'default' NOT NULL,
	`key` text,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`check_command` text,
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
	CONSTRAINT "tasks_status_check" CHECK("status" in ('pending', 'in_progress', 'completed', 'failed', 'blocked', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX `tasks_queue_status_sequence_idx` ON `tasks` (`queue`,`status`,`sequence`);--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_queue_sequence_idx` ON `tasks` (`queue`,`sequence`);--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_plan_id_key_idx` ON `tasks` (`plan_id`,`key`) WHERE "plan_id" is not null;--> statement-breakpoint
CREATE INDEX `tasks_lease_expires_at_idx` ON `tasks` (`lease_expires_at`) WHERE "status" = 'in_progress';