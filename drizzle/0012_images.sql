CREATE TABLE `images` (
	`hash` text PRIMARY KEY NOT NULL,
	`media_type` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`size` integer NOT NULL,
	`bytes` blob NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "images_media_type_check" CHECK("media_type" in ('image/png', 'image/jpeg', 'image/gif', 'image/webp'))
);
