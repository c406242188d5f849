CREATE TABLE `file_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`run_id` text NOT NULL,
	`task_id` text,
	`step` integer NOT NULL,
	`call_id` text NOT NULL,
	`tool` text NOT NULL,
	`path` text NOT NULL,
	`before_id` text,
	`before_mode` integer,
	`after_id` text,
	`after_mode` integer,
	`blob_store` text NOT NULL,
	`created_at` integer NOT NULL,
	`undone_by` integer,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "file_changes_blob_store_check" CHECK("blob_store" in ('git', 'folder'))
);
--> statement-breakpoint
CREATE INDEX `file_changes_session_id_idx` ON `file_changes` (`session_id`);--> statement-breakpoint
CREATE TABLE `restores` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`kind` text NOT NULL,
	`mode` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`change_ids` text NOT NULL,
	`result` text,
	`redoes` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "restores_kind_check" CHECK("kind" in ('undo', 'rewind', 'redo')),
	CONSTRAINT "restores_mode_check" CHECK("mode" in ('code', 'conversation', 'both')),
	CONSTRAINT "restores_status_check" CHECK("status" in ('pending', 'done'))
);
--> statement-breakpoint
CREATE INDEX `restores_session_id_idx` ON `restores` (`session_id`);--> statement-breakpoint
ALTER TABLE `messages` ADD `rewound_by` integer;