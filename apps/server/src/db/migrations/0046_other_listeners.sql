-- Hand-written. How many other instances listen for application changes, for a statement that
-- announces one to count the acknowledgements to wait for. Through pg_stat_activity the count
-- costs a plan of the view (three relations and a function) wherever the statement is not
-- prepared, as a meter's increment is not: some 400 µs of PostgreSQL's CPU a call. PL/pgSQL
-- keeps its statements' plans for the session, so this function is planned once per connection.
CREATE FUNCTION count_other_listeners(listener_name text) RETURNS integer
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT count(*)::int - 1 FROM pg_stat_activity
          WHERE application_name = listener_name AND datname = current_database());
END $$;
