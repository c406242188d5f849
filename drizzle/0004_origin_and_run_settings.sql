CREATE TABLE `database_origin` (
	`id` integer PRIMARY KEY NOT NULL,
	`workspace` text NOT NULL,
	`host` text NOT NULL,
	`user` text NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "database_origin_one_row_check" CHECK("id" = 1)
);
--> statement-breakpoint
ALTER TABLE `tasks` ADD `run_settings` text;