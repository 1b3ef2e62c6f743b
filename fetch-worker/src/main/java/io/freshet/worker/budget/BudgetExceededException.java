package io.freshet.worker.budget;

/**
 * The fetch's work budget is spent: thrown at a {@link WorkBudget#checkpoint()} inside a parser, or
 * by {@link WorkBudget#run} when a parse ran past it. Unchecked so that parsers' loops need no
 * signature change; connectors turn it into {@code failed} / {@code budget_exceeded}.
 */
public final class BudgetExceededException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  BudgetExceededException(String message) {
    super(message, null, false, false);
  }
}
