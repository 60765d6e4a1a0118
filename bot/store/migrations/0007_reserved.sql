-- Number 7 is kept for the autopilot-level work done on another branch (migration numbers have no gaps).
-- When that branch's 0007 is merged, this placeholder file goes: it creates nothing.
SELECT 1;
