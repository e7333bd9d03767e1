-- One database per service, for docker-compose.yml. The postgres image runs this once, when its
-- data volume is new (after adding a service: `docker compose down -v`, or create it by hand).
CREATE DATABASE crm_people;
CREATE DATABASE crm_companies;
CREATE DATABASE events;
CREATE DATABASE bookings_invitations;
CREATE DATABASE tenant_info;
