-- Hand-written. A floating plan's seat is leased by one call instead of a transaction of four
-- statements (lock, count, insert, commit), so login can take it inside the statement that
-- stamps the user and writes the event (one commit for all three): each statement of a
-- volatile PL/pgSQL function reads with a fresh snapshot, so the count after the holder's row
-- lock sees every lease a login before it committed, and N+1 logins at once still take N seats.
CREATE FUNCTION take_seat(
  p_application_id integer,
  p_app_user_id uuid,
  p_seats integer,
  p_lease_minutes integer,
  p_token_hash text,
  p_hwid text,
  p_now timestamptz,
  OUT seat_outcome text,
  OUT seat_lease_id uuid,
  OUT seat_until timestamptz
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  in_use integer;
  next_free timestamptz;
BEGIN
  PERFORM 1 FROM app_users u
    WHERE u.id = p_app_user_id AND u.application_id = p_application_id
    FOR UPDATE;
  IF NOT FOUND THEN
    seat_outcome := 'gone';
    RETURN;
  END IF;
  SELECT count(*), min(l.expires_at) INTO in_use, next_free
    FROM seat_leases l
    WHERE l.app_user_id = p_app_user_id AND l.expires_at > p_now;
  IF in_use >= p_seats THEN
    seat_outcome := 'full';
    seat_until := next_free;
    RETURN;
  END IF;
  seat_until := p_now + p_lease_minutes * interval '1 minute';
  INSERT INTO seat_leases
    (application_id, app_user_id, token_hash, hwid, lease_minutes, expires_at, created_at)
    VALUES (p_application_id, p_app_user_id, p_token_hash, p_hwid, p_lease_minutes, seat_until, p_now)
    RETURNING id INTO seat_lease_id;
  seat_outcome := 'taken';
END
$$;
