// The rules of ActivateUsers (spec §2 activate-users): who may activate the users of another region, and how an
// identity number is compared.

/** Only assistants who are not user managers, in the gambling domain. */
export const mayActivateRegions = (roles: readonly string[], domain: string) =>
  roles.includes('post_onboardings_assisted') && !roles.includes('get_users_all') && domain === 'gambling';

/** An identity number as it is compared: upper case, without spaces or dashes; '' for none. */
export const idNumberOf = (value: string | undefined) => value?.replace(/[\s-]/g, '').toUpperCase() ?? '';
