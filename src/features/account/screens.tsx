export { DeleteAccount } from './delete-account';
export { UserProfile } from './profile';
