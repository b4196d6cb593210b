ALTER TABLE "seat_leases" DROP CONSTRAINT "seat_leases_application_id_applications_id_fk";
