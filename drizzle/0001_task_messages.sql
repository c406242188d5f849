-- ON DELETE set null written by hand: drizzle-kit 0.31 leaves it out of ADD COLUMN (drizzle-orm#5619).
DROP INDEX `messages_session_id_idx`;--> statement-breakpoint
ALTER TABLE `messages` ADD `task_id` text REFERENCES tasks(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `messages_session_id_task_id_idx` ON `messages` (`session_id`,`task_id`);
