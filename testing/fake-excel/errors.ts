/**
 * Errors of the in-memory Excel fake. They mirror OfficeExtension.Error closely enough that code
 * written for Excel can branch on `error.code` the same way against the fake and the real host.
 */

/** The error codes the fake raises, spelled as Excel.ErrorCodes spells them. */
export const FakeErrorCodes = {
  accessDenied: "AccessDenied",
  apiNotFound: "ApiNotFound",
  generalException: "GeneralException",
  invalidArgument: "InvalidArgument",
  invalidOperation: "InvalidOperation",
  invalidOperationInCellEditMode: "InvalidOperationInCellEditMode",
  invalidReference: "InvalidReference",
  itemAlreadyExists: "ItemAlreadyExists",
  itemNotFound: "ItemNotFound",
  propertyNotLoaded: "PropertyNotLoaded",
  requestPayloadSizeLimitExceeded: "RequestPayloadSizeLimitExceeded",
  responsePayloadSizeLimitExceeded: "ResponsePayloadSizeLimitExceeded",
  unsupportedOperation: "UnsupportedOperation",
} as const;

/** One of the codes in {@link FakeErrorCodes}. */
export type FakeErrorCode = (typeof FakeErrorCodes)[keyof typeof FakeErrorCodes];

/**
 * Thrown (synchronously for PropertyNotLoaded, otherwise as the rejection of `context.sync()`)
 * whenever real Excel would fail. `code` and `debugInfo` have the shape of OfficeExtension.Error.
 */
export class FakeExcelError extends Error {
  readonly code: string;
  readonly debugInfo: { code: string; message: string; errorLocation?: string };

  constructor(code: string, message: string, errorLocation?: string) {
    super(message);
    this.name = "RichApi.Error";
    this.code = code;
    this.debugInfo = { code, message, errorLocation };
  }
}

/** The error Excel raises when a property is read before it was loaded and synced. */
export function propertyNotLoaded(objectName: string, property: string): FakeExcelError {
  return new FakeExcelError(
    FakeErrorCodes.propertyNotLoaded,
    `The property '${property}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
    `${objectName}.${property}`,
  );
}

/** Shorthand for an InvalidArgument error at a location. */
export function invalidArgument(message: string, location?: string): FakeExcelError {
  return new FakeExcelError(FakeErrorCodes.invalidArgument, message, location);
}
