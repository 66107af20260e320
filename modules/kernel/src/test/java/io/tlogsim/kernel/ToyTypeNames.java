package io.tlogsim.kernel;

/** The toy models' states and results, so that their checkpoints go through CBOR as real models' do. */
public final class ToyTypeNames implements TypeNames {
  @Override
  public void declare(Declarations names) {
    names
        .add("test.ToyModels.Nothing", ToyModels.Nothing.class)
        .add("test.ToyModels.RecorderState", ToyModels.RecorderState.class)
        .add("test.ToyModels.HopperState", ToyModels.HopperState.class)
        .add("test.ApiToys.ClientState", ApiToys.ClientState.class)
        .add("test.ApiToys.FanOutState", ApiToys.FanOutState.class)
        .add("test.ApiToys.MemberState", ApiToys.MemberState.class)
        .add("test.ApiToys.FlusherState", ApiToys.FlusherState.class)
        .add("test.ApiToys.Nothing", ApiToys.Nothing.class)
        .add("test.ApiToys.GateState", ApiToys.GateState.class)
        .add("test.KernelTest.Seen", KernelTest.Seen.class, "io.tlogsim.kernel.KernelTest$Seen");
  }
}
