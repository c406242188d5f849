ALTER TABLE `runs` ADD `cost` real;--> statement-breakpoint
ALTER TABLE `runs` ADD `task_id` text;