#!/bin/sh
# Runs once, when the postgres container starts on an empty data volume
# (/docker-entrypoint-initdb.d): the services' role and database (Flyway creates the scheduler and
# content schemas in it) and the schema registry's. Passwords come from the environment
# (FRESHET_DB_PASSWORD, REGISTRY_DB_PASSWORD; see .env.example), never from this file.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  --set=freshet_password="$FRESHET_DB_PASSWORD" \
  --set=registry_password="$REGISTRY_DB_PASSWORD" <<'SQL'
CREATE ROLE freshet LOGIN PASSWORD :'freshet_password';
CREATE DATABASE freshet OWNER freshet;
CREATE ROLE registry LOGIN PASSWORD :'registry_password';
CREATE DATABASE registry OWNER registry;
SQL
