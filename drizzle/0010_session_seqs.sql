CREATE TABLE `session_seqs` (
	`session_id` text PRIMARY KEY NOT NULL,
	`last_seq` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- Each session's counter starts where its event log stands.
INSERT INTO `session_seqs` (`session_id`, `last_seq`) SELECT `session_id`, max(`seq`) FROM `events` GROUP BY `session_id`;
