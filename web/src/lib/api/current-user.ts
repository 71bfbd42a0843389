/**
 * The query key of the signed-in user (GET /api/auth/me). It lives here, not in the auth
 * feature, because other features refetch the user after changing it (features do not import
 * each other): the investment preferences form invalidates it after a save.
 */
export const CURRENT_USER_QUERY_KEY = ["/api/auth/me"] as const;

/**
 * The query key of the signed-in user's settings (GET /api/user/preferences). The settings
 * feature reads it; the investment preferences form refetches it after a save, since both
 * carry the risk tolerance.
 */
export const USER_SETTINGS_QUERY_KEY = ["/api/user/preferences"] as const;
