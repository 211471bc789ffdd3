import "server-only";

/** The API's user shape: the username is the `_id`. Never includes the password hash. */
export function toUserResponse(user: { id: string; email: string }): {
  email: string;
  _id: string;
} {
  return { email: user.email, _id: user.id };
}
