#import <UIKit/UIKit.h>

@interface ATLMapView : UIView
@end
